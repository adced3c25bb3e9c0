import { useQuery } from '@tanstack/react-query';
import { getContent, getPageDocument, type ContentSource } from '../api/content.ts';

const sourceKey = (source: ContentSource) => (source.kind === 'revision' ? source.revisionId : source.kind === 'changeRequest' ? `cr:${source.changeRequestId}` : 'current');

export const contentKeys = {
  content: (spaceId: string, source: ContentSource) => ['spaces', spaceId, 'content', sourceKey(source)] as const,
  page: (spaceId: string, source: ContentSource, pageId: string) => ['spaces', spaceId, 'content', sourceKey(source), 'page', pageId] as const,
};

export const useContent = (spaceId: string, source: ContentSource) => useQuery({ queryKey: contentKeys.content(spaceId, source), queryFn: () => getContent(spaceId, source) });

export const usePageDocument = (spaceId: string, source: ContentSource, pageId: string | undefined) =>
  useQuery({ queryKey: contentKeys.page(spaceId, source, pageId ?? ''), queryFn: () => getPageDocument(spaceId, source, pageId!), enabled: pageId !== undefined });

/** The renderer's chunk, loaded once, with its highlighter and typesetter ready. */
export const useReader = () =>
  useQuery({
    queryKey: ['reader'],
    queryFn: async () => {
      const reader = await import('../components/readerChunk.ts');
      await reader.loadRenderers();
      return reader;
    },
    staleTime: Infinity,
  });
