// A page of a change request, written in: TipTap with the document model's extensions
// (src/content/editor) and the app's shortcuts (writing.ts), loaded from the change
// request as GitBook's document and saved back into it as the writer types (saving.ts).
// Its own chunk: only someone who edits loads TipTap.
import { Alert, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Editor } from '@tiptap/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { documentToProseMirror } from '../../../src/content/editor/toProseMirror.ts';
import { proseMirrorToDocument } from '../../../src/content/editor/toDocument.ts';
import { editorExtensions } from '../../../src/content/editor/schema.ts';
import { api, segment } from '../api/client.ts';
import { ErrorScreen } from '../components/ErrorScreen.tsx';
import type { PageWithDocument } from '../features/pages/api/content.ts';
import { contentKeys } from '../features/pages/queries/content.ts';
import { Saver, type SaveStatus } from './saving.ts';
import { Writing } from './writing.ts';
import { EDITOR_CLASS, editorStylesheet } from './styles.ts';

interface Props {
  spaceId: string;
  changeRequestId: string;
  pageId: string;
  title: string;
  csrfToken: string;
}

export function PageEditor({ spaceId, changeRequestId, pageId, title, csrfToken }: Props) {
  const base = `/v1/spaces/${segment(spaceId)}/change-requests/${segment(changeRequestId)}/content`;
  // As stored (not dereferenced): the editor writes back what it was given. Never cached, as each opening starts from what the change request holds.
  const loaded = useQuery({
    queryKey: ['editor', spaceId, changeRequestId, pageId],
    queryFn: () => api.get<PageWithDocument>(`${base}/page/${segment(pageId)}?format=document`),
    gcTime: 0,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  if (loaded.error) return <ErrorScreen error={loaded.error} onRetry={() => void loaded.refetch()} />;
  return (
    <Stack gap="xs">
      <Title order={2} size="h1">
        {title}
      </Title>
      {loaded.data ? (
        <Writer url={base} spaceId={spaceId} changeRequestId={changeRequestId} pageId={pageId} page={loaded.data} csrfToken={csrfToken} />
      ) : (
        <Stack gap="sm" aria-label="Loading the page">
          <Skeleton height={16} />
          <Skeleton height={16} width="70%" />
        </Stack>
      )}
    </Stack>
  );
}

function Writer({ url, spaceId, changeRequestId, pageId, page, csrfToken }: { url: string; spaceId: string; changeRequestId: string; pageId: string; page: PageWithDocument; csrfToken: string }) {
  const client = useQueryClient();
  const mount = useRef<HTMLDivElement>(null);
  const saver = useRef<Saver>(undefined);
  const [status, setStatus] = useState<SaveStatus>({ state: 'saved' });

  useEffect(() => {
    const current = new Saver({ url, pageId, csrfToken, initial: page.document, onStatus: setStatus });
    saver.current = current;
    const editor = new Editor({
      element: mount.current!,
      extensions: [...editorExtensions, Writing],
      content: documentToProseMirror(page.document),
      editorProps: { attributes: { class: EDITOR_CLASS, role: 'textbox', 'aria-multiline': 'true', 'aria-label': `${page.title}, the page's content` } },
      onUpdate: ({ editor: changed }) => current.change(proseMirrorToDocument(changed.getJSON())),
    });
    const leave = () => current.flush();
    const hidden = () => document.visibilityState === 'hidden' && current.flush();
    // Closing with changes not yet sent: the browser asks, as keepalive may not fit a large page.
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (current.dirty) event.preventDefault();
    };
    window.addEventListener('pagehide', leave);
    window.addEventListener('beforeunload', beforeUnload);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      window.removeEventListener('pagehide', leave);
      window.removeEventListener('beforeunload', beforeUnload);
      document.removeEventListener('visibilitychange', hidden);
      // Leaving the editor inside the app: what waits is saved, then the change request's read view shows it.
      void current.save().then(() => client.invalidateQueries({ queryKey: contentKeys.content(spaceId, { kind: 'changeRequest', changeRequestId }) }));
      current.dispose();
      editor.destroy();
    };
  }, [url, spaceId, changeRequestId, pageId, csrfToken, page, client]);

  return (
    <Stack gap="xs">
      <style>{editorStylesheet}</style>
      <Group gap="sm" justify="space-between">
        <Text size="sm" c="dimmed">
          Markdown shortcuts work as you type: #, ## or ### and a space for headings, - or 1. for lists, &gt; for a quote, ``` for code, --- for a divider, **bold**, *italic* and `code`.
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" role="status" aria-live="polite" fw={600} c={status.state === 'failed' ? 'red' : undefined}>
            {status.state === 'saving' ? 'Saving…' : status.state === 'saved' ? 'Saved' : 'Not saved'}
          </Text>
        </Group>
      </Group>
      {status.state === 'failed' && (
        <Alert color="red" title="Your last changes are not saved yet">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{status.message}</Text>
            <Button size="xs" variant="default" onClick={() => void saver.current?.save()}>
              Try saving again
            </Button>
          </Stack>
        </Alert>
      )}
      <div ref={mount} />
    </Stack>
  );
}
