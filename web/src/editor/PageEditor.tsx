// A page of a change request, written in: TipTap with the document model's extensions
// (src/content/editor) and the app's shortcuts (writing.ts), loaded from the change
// request as GitBook's document and saved back into it as the writer types (saving.ts).
// Its own chunk: only someone who edits loads TipTap.
import { Alert, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { EditorContent, useEditor } from '@tiptap/react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { documentToProseMirror } from '../../../src/content/editor/toProseMirror.ts';
import { nodeToDocument } from '../../../src/content/editor/toDocument.ts';
import { ErrorScreen } from '../components/ErrorScreen.tsx';
import type { PageWithDocument } from '../features/pages/api/content.ts';
import { contentKeys } from '../features/pages/queries/content.ts';
import { fillingKey, openPage, type OpenedPage } from './filling.ts';
import { changeRequestContentUrl, readForEditing } from './opening.ts';
import { Saver, type SaveStatus } from './saving.ts';
import { Writing } from './writing.ts';
import { EDITOR_CLASS, editorStylesheet } from './styles.ts';
import type { EditorContext } from './part.ts';
import { extensionsFor, parts, partStyles } from './parts.ts';

interface Props {
  spaceId: string;
  changeRequestId: string;
  pageId: string;
  title: string;
  csrfToken: string;
}

export function PageEditor({ spaceId, changeRequestId, pageId, title, csrfToken }: Props) {
  const base = changeRequestContentUrl(spaceId, changeRequestId);
  // Never cached, as each opening starts from what the change request holds.
  const loaded = useQuery({
    queryKey: ['editor', spaceId, changeRequestId, pageId],
    queryFn: () => readForEditing(base, pageId),
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
  const saver = useRef<Saver>(undefined);
  const opened = useRef<OpenedPage>(undefined);
  const [status, setStatus] = useState<SaveStatus>({ state: 'saved' });
  const context = useMemo<EditorContext>(() => ({ spaceId, changeRequestId, pageId, csrfToken, contentUrl: url }), [spaceId, changeRequestId, pageId, csrfToken, url]);

  // Once per page: converting thousands of blocks on every render (each change of the save status) held every key.
  const content = useMemo(() => documentToProseMirror(page.document), [page]);
  const editor = useEditor(
    {
      extensions: [...extensionsFor(context), Writing],
      editorProps: { attributes: { class: EDITOR_CLASS, role: 'textbox', 'aria-multiline': 'true', 'aria-label': `${page.title}, the page's content` } },
      // The state after this change, kept as it is (ProseMirror's documents are immutable) and converted only when the save is due.
      onUpdate: ({ editor: changed, transaction }) => {
        if (transaction.getMeta(fillingKey)) return;
        const doc = opened.current?.whole(changed.state.doc) ?? changed.state.doc;
        saver.current?.change(() => nodeToDocument(doc));
      },
      immediatelyRender: true,
      shouldRerenderOnTransaction: false,
    },
    [context, page],
  );

  // TipTap draws its document twice as it mounts: into an element of its own, then again once EditorContent gives the
  // node views their place in React (it sets them anew). On a page of 5,000 blocks each drawing took half a second,
  // so the editor starts empty and is given the page here, before the browser paints: one drawing, and an undo
  // history that starts with the page. A long page is given its first screen here, the rest after (filling.ts).
  useLayoutEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const page = openPage(editor, editor.schema.nodeFromJSON(content));
    opened.current = page;
    return () => page.stop();
  }, [editor, content]);

  useEffect(() => {
    const changeRequestContent = contentKeys.content(spaceId, { kind: 'changeRequest', changeRequestId });
    let written = false;
    // The first save of this page makes it one the change request changes: its list of changed pages is read again (once: a large tree is costly to read).
    const onWritten = () => {
      if (written) return;
      written = true;
      void client.invalidateQueries({ queryKey: changeRequestContent });
    };
    const current = new Saver({ url, pageId, csrfToken, initial: page.document, onStatus: setStatus, onWritten });
    saver.current = current;
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
      void current.save().then(() => client.invalidateQueries({ queryKey: changeRequestContent }));
      current.dispose();
    };
  }, [url, spaceId, changeRequestId, pageId, csrfToken, page, client]);

  return (
    <Stack gap="xs">
      <style>{editorStylesheet + partStyles}</style>
      <Group gap="sm" justify="space-between">
        <Group gap="xs">
          {editor && parts.map((part, index) => part.toolbar && <part.toolbar key={index} editor={editor} context={context} />)}
        </Group>
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" role="status" aria-live="polite" fw={600} c={status.state === 'failed' ? 'red' : undefined}>
            {status.state === 'saving' ? 'Saving…' : status.state === 'saved' ? 'Saved' : 'Not saved'}
          </Text>
        </Group>
      </Group>
      <Text size="sm" c="dimmed">
        Type / for blocks, @ to mention someone or a page, : for an emoji. Markdown works as you type: #, ## or ### and a space for headings, - or 1. for lists, [ ] for tasks, &gt; for a quote, ``` for code, --- for a divider, **bold**, *italic*, ~~struck~~ and `code`.
      </Text>
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
      <EditorContent editor={editor} />
      {editor && parts.map((part, index) => part.overlay && <part.overlay key={index} editor={editor} context={context} />)}
    </Stack>
  );
}
