// `/s/:spaceId/<page path>` and `/s/:spaceId/~/revisions/:revisionId/<page path>`: a
// space's pages, the tree beside (in a drawer on a phone) and the open page as readers see it.
import { Anchor, Badge, Box, Burger, Button, Container, Drawer, Group, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { useDisclosure, useDocumentTitle } from '@mantine/hooks';
import { useMemo } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { FullPageLoader } from '../../../components/FullPageLoader.tsx';
import { LoadFailure } from '../../../components/LoadFailure.tsx';
import { EditButton } from '../../changeRequests/components/EditButton.tsx';
import type { Space } from '../../spaces/api/spaces.ts';
import { SpaceBreadcrumbs } from '../../spaces/components/SpaceBreadcrumbs.tsx';
import { useSpace } from '../../spaces/queries/spaces.ts';
import type { ContentSource } from '../api/content.ts';
import { useContent } from '../queries/content.ts';
import { indexPages } from './pageTree.ts';
import { PageTree } from './PageTree.tsx';
import { PageView } from './PageView.tsx';

const HEADER = 56;

export function SpaceScreen() {
  const { spaceId = '', revisionId, '*': path = '' } = useParams();
  const source: ContentSource = revisionId ? { kind: 'revision', revisionId } : { kind: 'current' };
  const basePath = revisionId ? `/s/${spaceId}/~/revisions/${revisionId}` : `/s/${spaceId}`;
  const space = useSpace(spaceId);
  const content = useContent(spaceId, source);
  const index = useMemo(() => (content.data ? indexPages(content.data.pages) : undefined), [content.data]);
  const [drawer, { toggle, close }] = useDisclosure(false);
  useDocumentTitle(space.data ? `${space.data.title} · Quire` : 'Quire');

  const error = space.error ?? content.error;
  if (error) return <LoadFailure error={error} what={space.error ? 'space' : 'revision'} onRetry={() => void Promise.all([space.refetch(), content.refetch()])} />;
  if (!space.data || !content.data || !index) return <FullPageLoader />;
  const pagePath = path.replace(/\/$/, '');
  if (!pagePath && index.first?.path) return <Navigate to={`${basePath}/${index.first.path}${window.location.hash}`} replace />;
  const entry = pagePath ? index.byPath.get(pagePath) : undefined;

  const navigation = (
    <nav aria-label="Pages" style={{ height: '100%' }}>
      <PageTree index={index} currentPageId={entry?.page.id} basePath={basePath} onNavigate={close} />
    </nav>
  );
  return (
    <Box style={{ display: 'flex', alignItems: 'flex-start' }}>
      <Box visibleFrom="sm" w={300} style={{ flex: 'none', position: 'sticky', top: HEADER, height: `calc(100dvh - ${HEADER}px)`, borderRight: '1px solid var(--mantine-color-default-border)' }}>
        {navigation}
      </Box>
      {/* Mounted only while open, as Dialog is (its portal finds <main> when mounted). */}
      {drawer && (
        <Drawer opened={drawer} onClose={close} title={space.data.title} hiddenFrom="sm" size="85%" scrollAreaComponent={ScrollArea.Autosize} portalProps={{ target: 'main' }} closeButtonProps={{ 'aria-label': 'Close the pages' }}>
          <Box h={`calc(100dvh - ${HEADER + 24}px)`}>{navigation}</Box>
        </Drawer>
      )}
      <Container size="md" py="lg" px={{ base: 'md', sm: 'xl' }} style={{ flex: 1, minWidth: 0 }}>
        <Stack gap="lg">
          <SpaceHeading space={space.data} revisionId={revisionId} createdAt={content.data.createdAt} drawerOpen={drawer} onDrawer={index.ordered.length > 0 ? toggle : undefined} />
          {entry ? (
            <>
              {!revisionId && space.data.permissions.edit && entry.page.path !== undefined && <EditButton spaceId={spaceId} pagePath={entry.page.path} />}
              <PageView key={entry.page.id} spaceId={spaceId} source={source} page={entry.page} index={index} files={content.data.files} basePath={basePath} />
            </>
          ) : pagePath ? (
            <Stack gap="xs">
              <Title order={1} size="h2">
                No page at this address
              </Title>
              <Text>
                This space has no page at “{pagePath}”. It may have been moved or deleted: pick one in the list of pages, or open the{' '}
                <Anchor component={Link} to={`${basePath}/`}>
                  space's first page
                </Anchor>
                .
              </Text>
            </Stack>
          ) : (
            <Stack gap="xs">
              <Title order={1} size="h2">
                {space.data.title}
              </Title>
              <Text fw={600}>This space has no pages yet</Text>
              <Text size="sm" c="dimmed">
                Pages arrive through a change request (the API's content operations), an import, or Git Sync. Writing in the app comes later.
              </Text>
            </Stack>
          )}
        </Stack>
      </Container>
    </Box>
  );
}

/** `onDrawer` undefined: no pages, so no drawer of them to open. */
function SpaceHeading({ space, revisionId, createdAt, drawerOpen, onDrawer }: { space: Space; revisionId?: string; createdAt: string; drawerOpen: boolean; onDrawer?: () => void }) {
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="nowrap">
        <Group gap="xs" wrap="nowrap" miw={0}>
          {onDrawer && <Burger opened={drawerOpen} onClick={onDrawer} hiddenFrom="sm" size="sm" aria-label="Pages of this space" />}
          <SpaceBreadcrumbs space={space} />
        </Group>
        <Button component={Link} to={`/s/${space.id}/~/changes/`} variant="default" size="xs" style={{ flex: 'none' }}>
          Change requests{space.changeRequestsOpen > 0 ? ` (${space.changeRequestsOpen} open)` : ''}
        </Button>
      </Group>
      {revisionId && (
        <Group gap="xs" role="status">
          <Badge color="gray" variant="outline">
            Read only
          </Badge>
          <Text size="sm">
            You are reading the revision of {new Date(createdAt).toLocaleString()}.{' '}
            <Anchor component={Link} to={`/s/${space.id}/`}>
              Read the current content
            </Anchor>
          </Text>
        </Group>
      )}
    </Stack>
  );
}
