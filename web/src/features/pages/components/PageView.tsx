// A page as its readers see it: its document rendered by the published site's own
// renderer and stylesheet, so every GitBook block looks as it does there. Links to pages
// stay in the app, files lead to their downloads, and an anchor in the address is scrolled to.
import { Skeleton, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useEffect, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ErrorScreen } from '../../../components/ErrorScreen.tsx';
import type { ContentSource, FileEntry, PageEntry } from '../api/content.ts';
import { usePageDocument, useReader } from '../queries/content.ts';
import type { PageIndex } from './pageTree.ts';
import type { RenderContext } from './readerChunk.ts';
import { iconUrl, PageMark } from './PageMark.tsx';

interface Props {
  spaceId: string;
  source: ContentSource;
  page: PageEntry;
  index: PageIndex;
  files: FileEntry[];
  basePath: string;
  /** The page title's heading level: 2 where the screen has its own title (a change request's). */
  titleOrder?: 1 | 2;
}

export function PageView({ spaceId, source, page, index, files, basePath, titleOrder = 1 }: Props) {
  useDocumentTitle(`${page.title} · Quire`);
  const reader = useReader();
  const loaded = usePageDocument(spaceId, source, page.id);
  const navigate = useNavigate();
  const location = useLocation();
  const html = useMemo(() => {
    if (!reader.data || !loaded.data) return undefined;
    const pathOf = (pageId: string) => index.byId.get(pageId)?.page.path;
    const context: RenderContext = {
      href(ref) {
        if (ref.kind === 'url') return ref.url;
        if ('space' in ref && ref.space && ref.space !== spaceId) return `/s/${ref.space}/`;
        if (ref.kind === 'page') {
          const path = pathOf(ref.page);
          return path === undefined ? undefined : `${basePath}/${path}${ref.anchor ? `#${ref.anchor}` : ''}`;
        }
        if (ref.kind === 'anchor') {
          const path = ref.page ? pathOf(ref.page) : page.path;
          return path === undefined ? undefined : `${basePath}/${path}#${ref.anchor}`;
        }
        if (ref.kind === 'file') return files.find((file) => file.id === ref.file)?.downloadURL;
        if (ref.kind === 'space') return `/s/${ref.space}/`;
        return undefined;
      },
      pageTitle: (pageId) => index.byId.get(pageId)?.page.title,
      iconUrl,
    };
    return reader.data.renderDocument(loaded.data.document, context);
  }, [reader.data, loaded.data, index, files, basePath, spaceId, page.path]);

  useEffect(() => {
    if (!html || !location.hash) return;
    const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    target?.scrollIntoView({ block: 'start' });
  }, [html, location.hash]);

  const error = reader.error ?? loaded.error;
  if (error) return <ErrorScreen error={error} onRetry={() => void Promise.all([reader.refetch(), loaded.refetch()])} />;
  return (
    <Stack gap="xs">
      <Title order={titleOrder} size="h1">
        <PageMark page={page} />
        {page.title}
      </Title>
      {loaded.data?.description && (
        <Text size="lg" c="dimmed">
          {loaded.data.description}
        </Text>
      )}
      {html === undefined || !reader.data ? (
        <Stack gap="sm" aria-label="Loading the page">
          <Skeleton height={16} />
          <Skeleton height={16} />
          <Skeleton height={16} width="70%" />
        </Stack>
      ) : (
        <>
          <style>{reader.data.readerStylesheet()}</style>
          <article
            className={reader.data.READER_CLASS}
            aria-label={page.title}
            // The reader's renderer writes hast out escaped (render.ts): this is the published site's own HTML.
            dangerouslySetInnerHTML={{ __html: html }}
            onClick={(event) => {
              // Links to the app's own screens open in the app rather than reloading it.
              const link = (event.target as HTMLElement).closest('a');
              const href = link?.getAttribute('href');
              if (!href || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || link?.target) return;
              if (href.startsWith('/s/') || href.startsWith('/o/')) {
                event.preventDefault();
                navigate(href);
              }
            }}
          />
        </>
      )}
    </Stack>
  );
}
