// `/s/:spaceId/~/changes/`: a space's change requests, filtered by status (kept in the address).
import { Anchor, Container, Group, SegmentedControl, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { Link, useParams, useSearchParams } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { FullPageLoader } from '../../../components/FullPageLoader.tsx';
import { LoadFailure } from '../../../components/LoadFailure.tsx';
import { SpaceBreadcrumbs } from '../../spaces/components/SpaceBreadcrumbs.tsx';
import { useSpace } from '../../spaces/queries/spaces.ts';
import type { ChangeRequestStatus } from '../api/changeRequests.ts';
import { useChangeRequests } from '../queries/changeRequests.ts';
import { STATUS_LABELS, StatusBadge } from './StatusBadge.tsx';

const STATUSES: ChangeRequestStatus[] = ['open', 'draft', 'merged', 'archived'];

export function ChangeRequestsScreen() {
  const { spaceId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const status = STATUSES.find((candidate) => candidate === search.get('status')) ?? 'open';
  const space = useSpace(spaceId);
  const list = useChangeRequests(spaceId, status);
  useDocumentTitle(space.data ? `Change requests · ${space.data.title} · Quire` : 'Quire');
  if (space.error) return <LoadFailure error={space.error} what="space" onRetry={() => void space.refetch()} />;
  if (!space.data) return <FullPageLoader />;
  return (
    <Container size="md" py="lg">
      <Stack gap="md">
        <SpaceBreadcrumbs space={space.data} />
        <Title order={1} size="h2">
          Change requests
        </Title>
        <SegmentedControl
          aria-label="Show change requests that are"
          value={status}
          onChange={(value) => setSearch(value === 'open' ? {} : { status: value }, { replace: true })}
          data={STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] }))}
          style={{ alignSelf: 'flex-start' }}
        />
        <ErrorAlert error={list.error} />
        {!list.data && !list.error && <Skeleton height={120} aria-label="Loading the change requests" />}
        {list.data?.length === 0 && (
          <Stack gap={4}>
            <Text fw={600}>No {STATUS_LABELS[status].toLowerCase()} change requests</Text>
            <Text size="sm" c="dimmed">
              {status === 'open'
                ? 'A change request proposes edits to this space without changing it until it is merged. They are opened through the API or by Git Sync; opening one in the app comes later.'
                : 'Pick another status above to see the others.'}
            </Text>
          </Stack>
        )}
        {list.data && list.data.length > 0 && (
          <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label={`${STATUS_LABELS[status]} change requests`}>
            {list.data.map((changeRequest) => (
              <li key={changeRequest.id} style={{ borderBottom: '1px solid var(--mantine-color-default-border)', padding: '0.6rem 0' }}>
                <Group justify="space-between" wrap="nowrap" gap="sm">
                  <div style={{ minWidth: 0 }}>
                    <Anchor component={Link} to={`/s/${spaceId}/~/changes/${changeRequest.number}/`} fw={600}>
                      #{changeRequest.number} {changeRequest.subject || 'Untitled change request'}
                    </Anchor>
                    <Text size="xs" c="dimmed">
                      by {changeRequest.createdBy.displayName} · updated {new Date(changeRequest.updatedAt).toLocaleDateString()}
                    </Text>
                  </div>
                  <StatusBadge status={changeRequest.status} />
                </Group>
              </li>
            ))}
          </ul>
        )}
      </Stack>
    </Container>
  );
}
