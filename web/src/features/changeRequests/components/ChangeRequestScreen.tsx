// `/s/:spaceId/~/changes/:number/<page path>`: a change request read-only: its subject,
// status and author, the pages it adds, edits or removes, and each of them as it proposes it.
// With `?edit`, the open page in the editor (its own chunk) for the change request's writer,
// beside the change request's page tree, which they edit there too;
// `…/~reusable/<id>?edit`, one of its reusable contents in the editor, where it lives.
import { Alert, Anchor, Box, Button, Container, Grid, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle, useMediaQuery } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { FullPageLoader } from '../../../components/FullPageLoader.tsx';
import { LoadFailure } from '../../../components/LoadFailure.tsx';
import type { ContentSource } from '../../pages/api/content.ts';
import { useSession } from '../../auth/queries/authState.ts';
import { indexPages, type PageIndex } from '../../pages/components/pageTree.ts';
import { PageView } from '../../pages/components/PageView.tsx';
import { useContent } from '../../pages/queries/content.ts';
import { SpaceBreadcrumbs } from '../../spaces/components/SpaceBreadcrumbs.tsx';
import type { Space } from '../../spaces/api/spaces.ts';
import { useSpace } from '../../spaces/queries/spaces.ts';
import { getChangeRequestPdf, type ChangeRequest } from '../api/changeRequests.ts';
import { useChangeRequest } from '../queries/changeRequests.ts';
import { changedPages, changedReusableContents } from './changedPages.ts';
import { editablePageTree, pageEditor, reusableContentEditor } from './editing.ts';
import { StatusBadge } from './StatusBadge.tsx';

const EditablePageTree = editablePageTree.Component;
const PageEditor = pageEditor.Component;
const ReusableContentEditor = reusableContentEditor.Component;

/** A reusable content's place under the change request's address: `~` is in no page's slug, so no page's path is one. */
const REUSABLE_PATH = /^~reusable\/([^/]+)$/;

const CHANGE_LABELS = { added: 'Added', edited: 'Edited', removed: 'Removed' } as const;

export function ChangeRequestScreen() {
  const { spaceId = '', changeRequestNumber = '', '*': path = '' } = useParams();
  const editing = useSearchParams()[0].has('edit');
  const space = useSpace(spaceId);
  const changeRequest = useChangeRequest(spaceId, changeRequestNumber);
  useDocumentTitle(changeRequest.data ? `#${changeRequest.data.number} ${changeRequest.data.subject} · Quire` : 'Quire');
  const error = space.error ?? changeRequest.error;
  if (error) return <LoadFailure error={error} what={space.error ? 'space' : 'change request'} onRetry={() => void Promise.all([space.refetch(), changeRequest.refetch()])} />;
  if (!space.data || !changeRequest.data) return <FullPageLoader />;
  const cr = changeRequest.data;
  return (
    <Container size={editing ? 'xl' : 'md'} py="lg">
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
        {!editing && (
          <Alert color="gray" variant="outline" title="Read only">
            This screen shows what the change request proposes. Reviewing, commenting and merging in the app come in a later version; until then use the API. <Anchor component={Link} to={`/s/${spaceId}/~/changes/`}>All change requests</Anchor>
          </Alert>
        )}
        <PdfExport spaceId={spaceId} changeRequest={cr} />
        <ChangedPages spaceId={spaceId} space={space.data} changeRequest={cr} path={path.replace(/\/$/, '')} editing={editing} />
      </Stack>
    </Container>
  );
}

/** Who may write in the change request here: its writer, while it is still being written, in a space they may edit; otherwise why not, said to the reader. */
function whyReadOnly(space: Space, changeRequest: ChangeRequest, userId: string): string | undefined {
  if (!space.permissions.edit) return 'You can read this page. Only the space’s editors (its administrators and the members or teams given “edit”) may write in it: ask an administrator of the space for that.';
  if (changeRequest.createdBy.id !== userId) return `This is ${changeRequest.createdBy.displayName}’s change request: only they write in it. Use Edit on the space’s page to write in your own.`;
  if (changeRequest.status === 'merged' || changeRequest.status === 'archived') return `This change request is ${changeRequest.status}: it can no longer be written in. Use Edit on the space’s page to start another.`;
  return undefined;
}

function ChangedPages({ spaceId, space, changeRequest, path, editing }: { spaceId: string; space: Space; changeRequest: ChangeRequest; path: string; editing: boolean }) {
  const session = useSession();
  const readOnly = whyReadOnly(space, changeRequest, session.user.id);
  const source: ContentSource = { kind: 'changeRequest', changeRequestId: changeRequest.id };
  const proposed = useContent(spaceId, source);
  const initial = useContent(spaceId, { kind: 'revision', revisionId: changeRequest.revisionInitial });
  const index = useMemo(() => (proposed.data ? indexPages(proposed.data.pages) : undefined), [proposed.data]);
  const changes = useMemo(() => (proposed.data && initial.data ? changedPages(initial.data.pages, proposed.data.pages) : undefined), [proposed.data, initial.data]);
  const reusableChanges = useMemo(
    () => (proposed.data && initial.data ? changedReusableContents(initial.data.reusableContents, proposed.data.reusableContents) : []),
    [proposed.data, initial.data],
  );
  const basePath = `/s/${spaceId}/~/changes/${changeRequest.number}`;
  const writing = editing && !readOnly;
  const reusableContentId = REUSABLE_PATH.exec(path)?.[1];
  // The page whose block opened the reusable content, to go back to.
  const cameFrom = (useLocation().state as { from?: string } | null)?.from;
  useFollowOpenPage(index, path, basePath, writing && !reusableContentId);
  const error = proposed.error ?? initial.error;
  if (error) return <ErrorAlert error={error} />;
  if (!changes || !index || !proposed.data) return <Skeleton height={80} aria-label="Loading the changed pages" />;
  const open = path ? index.byPath.get(path) : undefined;
  const screen = (
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
          <ChangeList
            items={changes.map(({ change, page }) => ({
              id: page.id,
              change,
              title: page.title,
              to: change === 'removed' || page.path === undefined ? undefined : `${basePath}/${page.path}`,
              current: open?.page.id === page.id,
            }))}
          />
        )}
      </section>
      {reusableChanges.length > 0 && (
        <section aria-labelledby="changed-reusable-contents">
          <Title order={2} size="h4" id="changed-reusable-contents" mb="xs">
            Changed reusable contents
          </Title>
          <ChangeList
            items={reusableChanges.map(({ change, reusableContent }) => ({
              id: reusableContent.id,
              change,
              title: reusableContent.title,
              to: writing && change !== 'removed' ? `${basePath}/~reusable/${encodeURIComponent(reusableContent.id)}?edit` : undefined,
              current: reusableContentId === reusableContent.id,
            }))}
          />
        </section>
      )}
      {path && !open && !reusableContentId && <Text>This change request has no page at “{path}”.</Text>}
      {reusableContentId && writing && (
        <section aria-label="Writing a reusable content" style={{ borderTop: '1px solid var(--mantine-color-default-border)', paddingTop: '1rem' }}>
          {cameFrom && (
            <Anchor component={Link} to={cameFrom} size="sm" mb="xs" display="inline-block">
              ← Back to the page
            </Anchor>
          )}
          <Suspense fallback={<Skeleton height={160} aria-label="Loading the editor" />}>
            <ReusableContentEditor key={reusableContentId} spaceId={spaceId} changeRequestId={changeRequest.id} reusableContentId={reusableContentId} basePath={basePath} csrfToken={session.csrfToken} />
          </Suspense>
        </section>
      )}
      {reusableContentId && !writing && (
        <Alert color="gray" variant="outline" title="Read only">
          {readOnly ?? 'Reusable contents are shown in the pages that include them; choose Edit on one of those pages to write in them.'}
        </Alert>
      )}
      {open && editing && !readOnly && (
        <section aria-label={`Writing ${open.page.title}`} style={{ borderTop: '1px solid var(--mantine-color-default-border)', paddingTop: '1rem' }}>
          <Suspense fallback={<Skeleton height={160} aria-label="Loading the editor" />}>
            <PageEditor key={open.page.id} spaceId={spaceId} changeRequestId={changeRequest.id} pageId={open.page.id} title={open.page.title} basePath={basePath} csrfToken={session.csrfToken} />
          </Suspense>
        </section>
      )}
      {open && !(editing && !readOnly) && (
        <section aria-label={`${open.page.title}, as the change request proposes it`} style={{ borderTop: '1px solid var(--mantine-color-default-border)', paddingTop: '1rem' }}>
          {editing && readOnly && (
            <Alert color="gray" variant="outline" title="Read only" mb="md">
              {readOnly}
            </Alert>
          )}
          {!editing && !readOnly && open.page.path !== undefined && (
            <Button component={Link} to={`${basePath}/${open.page.path}?edit`} size="xs" mb="md">
              Edit this page
            </Button>
          )}
          <PageView key={open.page.id} spaceId={spaceId} source={source} page={open.page} index={index} files={proposed.data.files} basePath={basePath} titleOrder={2} />
        </section>
      )}
    </Stack>
  );
  if (!writing) return screen;
  return (
    <Grid gutter="lg">
      <Grid.Col span={{ base: 12, md: 3 }}>
        <PagesPanel>
          <Suspense fallback={<Skeleton height={120} aria-label="Loading the pages" />}>
            <EditablePageTree spaceId={spaceId} changeRequestId={changeRequest.id} index={index} files={proposed.data.files} currentPageId={open?.page.id} basePath={basePath} />
          </Suspense>
        </PagesPanel>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 9 }}>{screen}</Grid.Col>
    </Grid>
  );
}

/** What the change request adds, edits or removes: each a link where it can be opened. */
function ChangeList({ items }: { items: Array<{ id: string; change: keyof typeof CHANGE_LABELS; title: string; to?: string; current: boolean }> }) {
  return (
    <ul style={{ margin: 0, paddingLeft: '1.2rem' }}>
      {items.map(({ id, change, title, to, current }) => (
        <li key={id}>
          <Text span size="sm" fw={600}>
            {CHANGE_LABELS[change]}:{' '}
          </Text>
          {to ? (
            <Anchor component={Link} to={to} size="sm" aria-current={current ? 'page' : undefined}>
              {title}
            </Anchor>
          ) : (
            <Text span size="sm">
              {title}
            </Text>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The change request's pages beside the editor; on a narrow screen folded above it, so that the page being written comes first. */
function PagesPanel({ children }: { children: React.ReactNode }) {
  const narrow = useMediaQuery('(max-width: 61.99em)');
  const [shown, setShown] = useState(false);
  return (
    <Box component="nav" aria-label="Pages" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-md)', padding: '0.25rem' }}>
      {narrow && (
        <Button variant="subtle" color="gray" fullWidth justify="space-between" aria-expanded={shown} onClick={() => setShown(!shown)} rightSection={<span aria-hidden="true">{shown ? '▴' : '▾'}</span>}>
          Pages
        </Button>
      )}
      {/* Hidden, not unmounted: a page's settings open from the tree stay open when the screen narrows. */}
      <Box display={narrow && !shown ? 'none' : undefined}>{children}</Box>
    </Box>
  );
}

/**
 * The writer stays on the page they are writing when its address changes (a rename or a
 * move in the page tree) and goes to the first page when it is deleted.
 */
function useFollowOpenPage(index: PageIndex | undefined, path: string, basePath: string, writing: boolean) {
  const navigate = useNavigate();
  const openId = useRef<string>(undefined);
  useEffect(() => {
    if (!index || !writing) return;
    const open = path ? index.byPath.get(path) : undefined;
    if (open) {
      openId.current = open.page.id;
      return;
    }
    if (!openId.current) return;
    const moved = index.byId.get(openId.current)?.page.path ?? index.first?.path;
    openId.current = undefined;
    if (moved !== undefined) void navigate(`${basePath}/${moved}?edit`, { replace: true });
  }, [index, path, basePath, writing, navigate]);
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
