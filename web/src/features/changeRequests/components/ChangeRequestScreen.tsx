// `/s/:spaceId/~/changes/:number/<page path>`: a change request read-only: its subject,
// status and author, the pages it adds, edits or removes, and each of them as it proposes it.
import { Alert, Anchor, Button, Container, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { FullPageLoader } from '../../../components/FullPageLoader.tsx';
import { LoadFailure } from '../../../components/LoadFailure.tsx';
import type { ContentSource } from '../../pages/api/content.ts';
import { indexPages } from '../../pages/components/pageTree.ts';
import { PageView } from '../../pages/components/PageView.tsx';
import { useContent } from '../../pages/queries/content.ts';
import { SpaceBreadcrumbs } from '../../spaces/components/SpaceBreadcrumbs.tsx';
import { useSpace } from '../../spaces/queries/spaces.ts';
import { getChangeRequestPdf, type ChangeRequest } from '../api/changeRequests.ts';
import { useChangeRequest } from '../queries/changeRequests.ts';
import { changedPages } from './changedPages.ts';
import { StatusBadge } from './StatusBadge.tsx';

const CHANGE_LABELS = { added: 'Added', edited: 'Edited', removed: 'Removed' } as const;

export function ChangeRequestScreen() {
  const { spaceId = '', changeRequestNumber = '', '*': path = '' } = useParams();
  const space = useSpace(spaceId);
  const changeRequest = useChangeRequest(spaceId, changeRequestNumber);
  useDocumentTitle(changeRequest.data ? `#${changeRequest.data.number} ${changeRequest.data.subject} · Quire` : 'Quire');
  const error = space.error ?? changeRequest.error;
  if (error) return <LoadFailure error={error} what={space.error ? 'space' : 'change request'} onRetry={() => void Promise.all([space.refetch(), changeRequest.refetch()])} />;
  if (!space.data || !changeRequest.data) return <FullPageLoader />;
  const cr = changeRequest.data;
  return (
    <Container size="md" py="lg">
      <Stack gap="md">
        <SpaceBreadcrumbs space={space.data} />
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <Title order={1} size="h2" style={{ minWidth: 0 }}>
            #{cr.number} {cr.subject || 'Untitled change request'}
          </Title>
          <StatusBadge status={cr.status} />
        </Group>
        <Text size="sm" c="dimmed">
          Opened by {cr.createdBy.displayName} on {new Date(cr.createdAt).toLocaleDateString()} · updated {new Date(cr.updatedAt).toLocaleString()}
          {cr.outdated ? ' · the space changed since it was opened' : ''}
        </Text>
        <Alert color="gray" variant="outline" title="Read only">
          This screen shows what the change request proposes. Reviewing, commenting and merging in the app come in a later version; until then use the API. <Anchor component={Link} to={`/s/${spaceId}/~/changes/`}>All change requests</Anchor>
        </Alert>
        <PdfExport spaceId={spaceId} changeRequest={cr} />
        <ChangedPages spaceId={spaceId} changeRequest={cr} path={path.replace(/\/$/, '')} />
      </Stack>
    </Container>
  );
}

function ChangedPages({ spaceId, changeRequest, path }: { spaceId: string; changeRequest: ChangeRequest; path: string }) {
  const source: ContentSource = { kind: 'changeRequest', changeRequestId: changeRequest.id };
  const proposed = useContent(spaceId, source);
  const initial = useContent(spaceId, { kind: 'revision', revisionId: changeRequest.revisionInitial });
  const index = useMemo(() => (proposed.data ? indexPages(proposed.data.pages) : undefined), [proposed.data]);
  const changes = useMemo(() => (proposed.data && initial.data ? changedPages(initial.data.pages, proposed.data.pages) : undefined), [proposed.data, initial.data]);
  const basePath = `/s/${spaceId}/~/changes/${changeRequest.number}`;
  const error = proposed.error ?? initial.error;
  if (error) return <ErrorAlert error={error} />;
  if (!changes || !index || !proposed.data) return <Skeleton height={80} aria-label="Loading the changed pages" />;
  const open = path ? index.byPath.get(path) : undefined;
  return (
    <Stack gap="md">
      <section aria-labelledby="changed-pages">
        <Title order={2} size="h4" id="changed-pages" mb="xs">
          Changed pages
        </Title>
        {changes.length === 0 ? (
          <Text size="sm" c="dimmed">
            This change request changes no page yet.
          </Text>
        ) : (
          <ul style={{ margin: 0, paddingLeft: '1.2rem' }}>
            {changes.map(({ change, page }) => (
              <li key={page.id}>
                <Text span size="sm" fw={600}>
                  {CHANGE_LABELS[change]}:{' '}
                </Text>
                {change === 'removed' || page.path === undefined ? (
                  <Text span size="sm">
                    {page.title}
                  </Text>
                ) : (
                  <Anchor component={Link} to={`${basePath}/${page.path}`} size="sm" aria-current={open?.page.id === page.id ? 'page' : undefined}>
                    {page.title}
                  </Anchor>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      {path && !open && <Text>This change request has no page at “{path}”.</Text>}
      {open && (
        <section aria-label={`${open.page.title}, as the change request proposes it`} style={{ borderTop: '1px solid var(--mantine-color-default-border)', paddingTop: '1rem' }}>
          <PageView key={open.page.id} spaceId={spaceId} source={source} page={open.page} index={index} files={proposed.data.files} basePath={basePath} titleOrder={2} />
        </section>
      )}
    </Stack>
  );
}

/** Exports the proposed content as a PDF: it is made when the link opens, which takes a while for a large space, so the wait is said. */
function PdfExport({ spaceId, changeRequest }: { spaceId: string; changeRequest: ChangeRequest }) {
  const link = useMutation({ mutationFn: () => getChangeRequestPdf(spaceId, changeRequest.id) });
  return (
    <Stack gap="xs" align="flex-start">
      <ErrorAlert error={link.error} />
      {link.data ? (
        <Text size="sm" role="status">
          The PDF is ready to open:{' '}
          <Anchor href={link.data.url} target="_blank" rel="noreferrer">
            open the PDF of #{changeRequest.number}
          </Anchor>{' '}
          (the link works for a limited time).
        </Text>
      ) : (
        <Button variant="default" size="xs" loading={link.isPending} loaderProps={{ type: 'dots' }} onClick={() => link.mutate()}>
          Export as PDF
        </Button>
      )}
      {link.isPending && (
        <Text size="sm" role="status">
          Preparing the PDF…
        </Text>
      )}
    </Stack>
  );
}
