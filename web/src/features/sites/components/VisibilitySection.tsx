// Who may read the published site: anyone, anyone with its address, holders of a share
// link, or visitors your own service signs in (visitor authentication).
import { Button, CopyButton, Group, Paper, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formValues } from '../../../components/formValues.ts';
import { ConfirmButton } from '../../settings/components/ConfirmButton.tsx';
import { createShareLink, deleteShareLink, updateSite, type Site, type SiteVisibility } from '../api/sites.ts';
import { useShareLinks, useSiteMutation } from '../queries/sites.ts';
import { VisitorAuthSection } from './VisitorAuthSection.tsx';
import { VISIBILITIES } from './visibility.ts';

export function VisibilitySection({ organizationId, site }: { organizationId: string; site: Site }) {
  const changing = useSiteMutation(organizationId, (visibility: SiteVisibility) => updateSite(organizationId, site.id, { visibility }));
  return (
    <Stack gap="lg">
      <Paper withBorder p="lg" component="section" aria-labelledby="visibility-title">
        <Stack>
          <Title order={2} size="h3" id="visibility-title">
            Who can read it
          </Title>
          <ErrorAlert error={changing.error} />
          <Radio.Group
            aria-labelledby="visibility-title"
            value={site.visibility}
            onChange={(value) => changing.mutate(value as SiteVisibility)}
          >
            <Stack gap="sm">
              {VISIBILITIES.map((option) => (
                <Radio key={option.value} value={option.value} label={option.label} description={option.description} disabled={!site.permissions.admin || changing.isPending} />
              ))}
            </Stack>
          </Radio.Group>
        </Stack>
      </Paper>
      {site.visibility === 'share-link' && <ShareLinks organizationId={organizationId} site={site} />}
      {site.visibility === 'visitor-auth' && site.permissions.admin && <VisitorAuthSection organizationId={organizationId} site={site} />}
    </Stack>
  );
}

function ShareLinks({ organizationId, site }: { organizationId: string; site: Site }) {
  const { data: links, error } = useShareLinks(organizationId, site.id, true);
  const creating = useSiteMutation(organizationId, (name: string) => createShareLink(organizationId, site.id, name));
  const deleting = useSiteMutation(organizationId, (id: string) => deleteShareLink(organizationId, site.id, id));
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="share-links-title">
      <Stack>
        <Title order={2} size="h3" id="share-links-title">
          Share links
        </Title>
        <Text size="sm" c="dimmed">
          Each link opens the published site to whoever has it; deleting it closes the site to them at once.
        </Text>
        <ErrorAlert error={error ?? creating.error ?? deleting.error} />
        {site.permissions.admin && (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              const form = event.currentTarget;
              creating.mutate(formValues(form).name, { onSuccess: () => form.reset() });
            }}
          >
            <Group align="flex-end">
              <TextInput name="name" label="Who the link is for" required maxLength={100} style={{ flex: '1 1 12rem' }} />
              <Button type="submit" loading={creating.isPending}>
                Create share link
              </Button>
            </Group>
          </form>
        )}
        {links?.length === 0 && <Text size="sm">No share links yet.</Text>}
        {links?.map((link) => (
          <Stack key={link.id} gap={4}>
            <Text size="sm" fw={600}>
              {link.name}
            </Text>
            <Group gap="xs" wrap="nowrap">
              <TextInput readOnly size="xs" value={link.urls.published} aria-label={`Share link for ${link.name}`} style={{ flex: 1, minWidth: 0 }} />
              <CopyButton value={link.urls.published}>
                {({ copied, copy }) => (
                  <Button size="xs" onClick={copy} aria-label={`${copied ? 'Copied' : 'Copy'} the share link for ${link.name}`}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
              {site.permissions.admin && (
                <ConfirmButton label={`Revoke the share link for ${link.name}`} confirmLabel="Revoke" onConfirm={() => deleting.mutate(link.id)}>
                  Revoke
                </ConfirmButton>
              )}
            </Group>
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}
