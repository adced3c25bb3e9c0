// A page of a change request, or one of its reusable contents, written in: TipTap with the
// document model's extensions (src/content/editor) and the app's shortcuts (writing.ts),
// loaded from the change request as GitBook's document and saved back into it as the
// writer types (saving.ts). Its own chunk: only someone who edits loads TipTap.
import { Alert, Button, Group, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { EditorContent, useEditor } from '@tiptap/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { documentToProseMirror } from '../../../src/content/editor/toProseMirror.ts';
import { nodeToDocument } from '../../../src/content/editor/toDocument.ts';
import { api } from '../api/client.ts';
import { ErrorAlert } from '../components/ErrorAlert.tsx';
import { ErrorScreen } from '../components/ErrorScreen.tsx';
import { Dialog } from '../features/spaces/components/Dialog.tsx';
import { contentKeys } from '../features/pages/queries/content.ts';
import { fillingKey, openPage, type OpenedPage } from './filling.ts';
import { changeRequestContentUrl, readForEditing, type Writable } from './opening.ts';
import { Saver, type SaveStatus, type WritingTarget } from './saving.ts';
import { Writing } from './writing.ts';
import { EDITOR_CLASS, editorStylesheet } from './styles.ts';
import type { EditorContext } from './part.ts';
import { extensionsFor, parts, partStyles } from './parts.ts';
import { reusableDocumentsKey } from './references.ts';

interface Where {
  spaceId: string;
  changeRequestId: string;
  /** The change request's screen, `/s/{space}/~/changes/{number}`. */
  basePath: string;
  csrfToken: string;
}

export function PageEditor({ pageId, title, ...where }: Where & { pageId: string; title: string }) {
  // The same target while the page is: the saver is made anew when it changes.
  const target = useMemo<WritingTarget>(() => ({ kind: 'page', id: pageId }), [pageId]);
  return (
    <Opened target={target} where={where} loadingLabel="Loading the page">
      {() => (
        <Title order={2} size="h1">
          {title}
        </Title>
      )}
    </Opened>
  );
}

/** A reusable content written where it lives: its title and its blocks, which every page that includes it shows. */
export function ReusableContentEditor({ reusableContentId, ...where }: Where & { reusableContentId: string }) {
  const target = useMemo<WritingTarget>(() => ({ kind: 'reusableContent', id: reusableContentId }), [reusableContentId]);
  return (
    <Opened target={target} where={where} loadingLabel="Loading the reusable content">
      {(opened) => opened && <ReusableContentTitle {...where} reusableContentId={reusableContentId} title={opened.title} />}
    </Opened>
  );
}

/** The target read from the change request (never from a cache: each opening starts from what it holds), then its editor under `heading` (shown while it loads too). */
function Opened({ target, where, loadingLabel, children: heading }: { target: WritingTarget; where: Where; loadingLabel: string; children: (opened: Writable | undefined) => ReactNode }) {
  const base = changeRequestContentUrl(where.spaceId, where.changeRequestId);
  const loaded = useQuery({
    queryKey: ['editor', where.spaceId, where.changeRequestId, target.kind, target.id],
    queryFn: () => readForEditing(base, target),
    gcTime: 0,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  if (loaded.error) return <ErrorScreen error={loaded.error} onRetry={() => void loaded.refetch()} />;
  return (
    <Stack gap="xs">
      {heading(loaded.data)}
      {loaded.data ? (
        <Writer url={base} target={target} where={where} opened={loaded.data} />
      ) : (
        <Stack gap="sm" aria-label={loadingLabel}>
          <Skeleton height={16} />
          <Skeleton height={16} width="70%" />
        </Stack>
      )}
    </Stack>
  );
}

/** A reusable content's title, renamed where it is shown (saved as the field is left, if changed), and its deletion, once no page includes it. */
function ReusableContentTitle({ spaceId, changeRequestId, basePath, reusableContentId, title }: Where & { reusableContentId: string; title: string }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [value, setValue] = useState(title);
  const [saved, setSaved] = useState(title);
  const [deleting, setDeleting] = useState(false);
  const write = (change: Record<string, unknown>) => api.post(changeRequestContentUrl(spaceId, changeRequestId), { changes: [{ ...change, reusableContent: reusableContentId }] });
  const refresh = () => client.invalidateQueries({ queryKey: contentKeys.content(spaceId, { kind: 'changeRequest', changeRequestId }) });
  const rename = useMutation({
    mutationFn: (next: string) => write({ operation: 'update_reusable_content', title: next }),
    onSuccess: (_, next) => {
      setSaved(next);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => write({ operation: 'delete_reusable_content' }),
    onSuccess: async () => {
      await refresh();
      void navigate(`${basePath}/?edit`, { replace: true });
    },
  });
  const leave = () => {
    const next = value.trim();
    if (!next) setValue(saved);
    else if (next !== saved) rename.mutate(next);
  };
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        <Text size="xs" c="dimmed" fw={600} tt="uppercase">
          Reusable content
        </Text>
        <Button variant="default" size="compact-sm" onClick={() => setDeleting(true)}>
          Delete…
        </Button>
      </Group>
      <TextInput
        aria-label="Title of the reusable content"
        value={value}
        maxLength={255}
        size="lg"
        onChange={(event) => setValue(event.currentTarget.value)}
        onBlur={leave}
        onKeyDown={(event) => event.key === 'Enter' && event.currentTarget.blur()}
        description="Every page that includes it shows these blocks where it stands; what you write here is published with this change request."
      />
      <ErrorAlert error={rename.error} />
      <Dialog opened={deleting} onClose={() => setDeleting(false)} title={`Delete “${saved}”?`}>
        <Stack gap="md">
          <Text size="sm">It leaves this change request; the space keeps it until the change request is merged. A reusable content that pages still include cannot go: take its blocks out of them first.</Text>
          <ErrorAlert error={remove.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(false)}>
              Cancel
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
              Delete
            </Button>
          </Group>
        </Stack>
      </Dialog>
    </Stack>
  );
}

function Writer({ url, target, where, opened: page }: { url: string; target: WritingTarget; where: Where; opened: Writable }) {
  const { spaceId, changeRequestId, basePath, csrfToken } = where;
  const client = useQueryClient();
  const saver = useRef<Saver>(undefined);
  const opened = useRef<OpenedPage>(undefined);
  const [status, setStatus] = useState<SaveStatus>({ state: 'saved' });
  const pageId = target.kind === 'page' ? target.id : undefined;
  const context = useMemo<EditorContext>(() => ({ spaceId, changeRequestId, pageId, basePath, csrfToken, contentUrl: url }), [spaceId, changeRequestId, pageId, basePath, csrfToken, url]);

  // Once per page: converting thousands of blocks on every render (each change of the save status) held every key.
  const content = useMemo(() => documentToProseMirror(page.document), [page]);
  const editor = useEditor(
    {
      extensions: [...extensionsFor(context), Writing],
      editorProps: {
        attributes: { class: EDITOR_CLASS, role: 'textbox', 'aria-multiline': 'true', 'aria-label': `${page.title}, ${target.kind === 'page' ? "the page's content" : "the reusable content's blocks"}` },
      },
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
    const current = new Saver({ url, target, csrfToken, initial: page.document, onStatus: setStatus, onWritten });
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
      // Leaving the editor inside the app: what waits is saved, then the change request's read view shows it, and the pages including a reusable content written here.
      void current.save().then(() => {
        void client.invalidateQueries({ queryKey: changeRequestContent });
        if (target.kind === 'reusableContent') void client.invalidateQueries({ queryKey: reusableDocumentsKey(spaceId, changeRequestId) });
      });
      current.dispose();
    };
  }, [url, spaceId, changeRequestId, target, csrfToken, page, client]);

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
