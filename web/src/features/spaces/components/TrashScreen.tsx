// `/o/:organizationId/trash`: the organization's deleted spaces the person may restore
// or purge (the API lists only those), each button where the space's permissions say so.
import { Anchor, Box, Button, Container, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { ErrorScreen } from '../../../components/ErrorScreen.tsx';
import { FullPageLoader } from '../../../components/FullPageLoader.tsx';
import { LoadFailure } from '../../../components/LoadFailure.tsx';
import { useOrganization } from '../../organizations/queries/organizations.ts';
import { TONES } from '../../settings/components/tones.ts';
import type { Space } from '../api/spaces.ts';
import { usePurgeSpace, useRestoreSpace, useTrash } from '../queries/spaces.ts';
import { Dialog } from './Dialog.tsx';

const when = (iso: string | undefined) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '');

export function TrashScreen() {
  const { organizationId = '' } = useParams();
  const organization = useOrganization(organizationId);
  useDocumentTitle(organization.data ? `Trash · ${organization.data.title} · Quire` : 'Trash · Quire');
  if (organization.error) return <LoadFailure error={organization.error} what="organization" onRetry={() => void organization.refetch()} />;
  if (!organization.data) return <FullPageLoader />;
  return (
    <Container size="lg" py="xl">
      <Stack gap="md">
        <Anchor component={Link} to={`/o/${organizationId}/`} size="sm">
          ← {organization.data.title}
        </Anchor>
        <Title order={1} size="h2">
          Trash
        </Title>
        <Text c="dimmed" size="sm">
          Deleted spaces stay here for 7 days, then they are removed for good. You see the ones you may restore.
        </Text>
        <TrashList organizationId={organizationId} />
      </Stack>
    </Container>
  );
}

function TrashList({ organizationId }: { organizationId: string }) {
  const trash = useTrash(organizationId);
  const restore = useRestoreSpace(organizationId);
  const [purging, setPurging] = useState<Space | null>(null);
  if (trash.error) return <ErrorScreen error={trash.error} onRetry={() => void trash.refetch()} />;
  if (!trash.data) return <Skeleton height={120} aria-label="Loading the trash" />;
  if (trash.data.length === 0) return <Text>The trash is empty.</Text>;
  return (
    <>
      <ErrorAlert error={restore.error} />
      <Box component="ul" aria-label="Deleted spaces" style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: 'var(--mantine-spacing-sm)' }}>
          {trash.data.map((space) => {
            const name = space.title || 'Untitled space';
            return (
              <Paper component="li" key={space.id} withBorder p="sm">
                <Group justify="space-between" wrap="wrap" gap="sm">
                  <div style={{ minWidth: 0 }}>
                    <Text fw={600}>
                      {space.emoji && <span aria-hidden="true">{space.emoji} </span>}
                      {name}
                    </Text>
                    <Text size="sm" c="dimmed">
                      Deleted {when(space.deletedAt)} · removed for good {when(space.purgeAt)}
                    </Text>
                  </div>
                  {space.permissions.admin && (
                    <Group gap="xs">
                      <Button size="sm" variant="default" loading={restore.isPending && restore.variables === space.id} onClick={() => restore.mutate(space.id)} aria-label={`Restore ${name}`}>
                        Restore
                      </Button>
                      <Button size="sm" variant="default" c={TONES.danger} onClick={() => setPurging(space)} aria-label={`Purge ${name}`}>
                        Purge
                      </Button>
                    </Group>
                  )}
                </Group>
              </Paper>
            );
          })}
      </Box>
      <PurgeDialog organizationId={organizationId} space={purging} onClose={() => setPurging(null)} />
    </>
  );
}

function PurgeDialog({ organizationId, space, onClose }: { organizationId: string; space: Space | null; onClose: () => void }) {
  const purge = usePurgeSpace(organizationId);
  const close = () => {
    purge.reset();
    onClose();
  };
  const name = space?.title || 'Untitled space';
  return (
    <Dialog opened={space !== null} onClose={close} title={`Purge ${name}?`}>
      <Stack>
        <ErrorAlert error={purge.error} />
        <Text size="sm">The space and its pages are removed for good, now. This cannot be undone.</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={close} data-autofocus>
            Cancel
          </Button>
          <Button color="red.8" loading={purge.isPending} onClick={() => space && purge.mutate(space.id, { onSuccess: close })}>
            Purge for good
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
